// "Did you mean" suggestions for misspelt field names, enumeration values, kinds, addresses and flags.

/** Levenshtein distance, case-insensitive, bounded work for short identifiers. */
export function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  if (s === t) return 0;
  let prev = Array.from({ length: t.length + 1 }, (_, i) => i);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[t.length] ?? Math.max(s.length, t.length);
}

/** The closest candidate, if it is close enough to be a plausible typo. */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const d = distance(input, c);
    if (d < bestScore) {
      best = c;
      bestScore = d;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(input.length, best.length) / 3));
  return bestScore <= limit || best.toLowerCase().startsWith(input.toLowerCase()) ? best : undefined;
}

export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const c = closest(input, candidates);
  return c === undefined ? undefined : `did you mean "${c}"?`;
}
