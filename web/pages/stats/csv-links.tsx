// Downloads of the numbers shown, as CSV from the API (the same routes scripts use).
export function CsvLinks({ links }: { links: { label: string; href: string }[] }) {
  return (
    <section class="card panel" aria-labelledby="csv-title">
      <h2 id="csv-title">Download</h2>
      <ul class="csv-links">
        {links.map((l) => (
          <li key={l.href}>
            <a href={l.href} download>
              {l.label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
