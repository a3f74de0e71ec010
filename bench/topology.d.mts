/** The engine benchmarks' configuration of `resources` resources (5 per connection), and how many it declares. */
export function topology(resources: number): { yaml: string; count: number };
