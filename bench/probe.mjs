// Loaded into the benchmarked netform process (node --import): at exit, writes to the file named by
// NETFORM_BENCH_PROBE the process's own CPU time, peak RSS and the bytes it wrote to files (the state,
// its journal, the lock), which the benchmark cannot read from outside without platform tools.

import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const out = process.env.NETFORM_BENCH_PROBE;
if (out) {
  let fileBytes = 0;
  const size = (data) => (typeof data === "string" ? Buffer.byteLength(data) : (data?.byteLength ?? 0));
  const handle = await fs.promises.open(process.execPath, "r");
  const FileHandle = Object.getPrototypeOf(handle);
  await handle.close();
  for (const method of ["write", "writeFile", "appendFile"]) {
    const original = FileHandle[method];
    FileHandle[method] = function (data, ...rest) {
      fileBytes += size(data);
      return original.call(this, data, ...rest);
    };
  }
  for (const method of ["writeSync", "writeFileSync", "appendFileSync"]) {
    const original = fs[method];
    fs[method] = function (target, data, ...rest) {
      // Descriptors 1 and 2 are the terminal, not files.
      if (target !== 1 && target !== 2) fileBytes += size(data);
      return original.call(this, target, data, ...rest);
    };
  }
  syncBuiltinESMExports();
  process.on("exit", () => {
    const cpu = process.cpuUsage();
    const usage = process.resourceUsage();
    fs.writeFileSync(out, JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, maxRssKiB: usage.maxRSS, fileBytes }));
  });
}
