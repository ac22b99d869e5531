/**
 * The last save's result. The server's warnings about the design are the sentences the preview
 * already shows (the same checks): named, not repeated; any other warning is shown in full.
 */
export function SaveResult({ warnings, atPreview }: { warnings: string[]; atPreview: string[] }) {
  const shown = new Set(atPreview);
  const others = warnings.filter((w) => !shown.has(w));
  const atThePreview = warnings.length - others.length;
  return (
    <div class={`notice save-result ${warnings.length ? 'notice--warning' : 'notice--success'}`} id="save-result">
      {others.length ? (
        <>
          <p>Saved, with warnings from the server:</p>
          <ul>
            {others.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </>
      ) : null}
      {atThePreview > 0 ? (
        <p>
          {others.length ? 'And ' : 'Saved, with '}
          <a href="#design-warnings">{atThePreview === 1 ? 'the warning' : `the ${atThePreview} warnings`} shown at the preview</a>: phones
          may fail to scan this design.
        </p>
      ) : null}
      {warnings.length === 0 ? 'Saved.' : null}
    </div>
  );
}
