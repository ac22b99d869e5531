/** The last save's result, with the server's warnings in full. */
export function SaveResult({ warnings }: { warnings: string[] }) {
  return (
    <div class={`notice save-result ${warnings.length ? 'notice--warning' : 'notice--success'}`} id="save-result">
      {warnings.length ? (
        <>
          <p>Saved, with warnings from the server:</p>
          <ul>
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </>
      ) : (
        'Saved.'
      )}
    </div>
  );
}
