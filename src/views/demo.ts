// What `netform demo` shows: numbered steps of the simulator tour, the state transitions each object
// went through, and a closing summary.

import type { Output } from "./output.js";

export class DemoView {
  private step = 0;

  constructor(private readonly output: Output) {}

  intro(url: string, speed: number): void {
    const { c } = this.output;
    this.output.out(`${c.bold("netform demo")}: a tour of the embedded simulator`);
    this.output.out(c.dim(`  simulator on ${url}, transitions ${speed}x faster than the real service`));
  }

  begin(title: string): void {
    this.step++;
    this.output.out(`\n${this.output.c.bold(`${this.step}.`)} ${title}`);
  }

  detail(text: string): void {
    this.output.out(`   ${text}`);
  }

  transitions(states: string[], seconds: number): void {
    const { c } = this.output;
    const shown = states.map((s, i) => (i === states.length - 1 ? c.green(s) : c.yellow(s))).join(c.dim(" -> "));
    this.output.out(`   ${shown} ${c.dim(`(${seconds.toFixed(1)} s)`)}`);
  }

  done(requests: number, seconds: number): void {
    const { c } = this.output;
    this.output.out(`\n${c.green("Tour complete")}: ${requests} API requests in ${seconds.toFixed(1)} s.`);
    this.output.out(c.dim("Run `netform sim` to keep a simulator running and explore it yourself."));
  }
}
