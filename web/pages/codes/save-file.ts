// A file made or read by the page, handed to the browser as a download under a name.
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // The click has started the download; the address can go once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const sizes = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
/** 1,234 bytes → "1.2 KB" (decimal units, as browsers show downloads). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} bytes`;
  if (n < 1_000_000) return `${sizes.format(n / 1000)} KB`;
  return `${sizes.format(n / 1_000_000)} MB`;
}
