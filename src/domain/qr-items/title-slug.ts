// A title as a file-name stem: `Spring menu (2026)` → `spring-menu-2026`. ASCII only:
// accents are dropped, other scripts vanish (callers add a fallback for an empty slug).
export function titleSlug(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}
