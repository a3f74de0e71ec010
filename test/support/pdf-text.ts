/** The text a PDF shows: every hex string of its (uncompressed) TJ text arrays, decoded and joined per array. */
export function pdfText(pdf: string): string {
  const arrays = pdf.match(/\[[^\]]*\] TJ/g) ?? [];
  return arrays
    .map((a) => (a.match(/<([0-9a-f]*)>/gi) ?? []).map((h) => Buffer.from(h.slice(1, -1), "hex").toString("latin1")).join(""))
    .join("\n");
}
