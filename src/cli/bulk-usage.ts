// What cli.ts needs of the bulk commands before it runs one: their usage and their error.
// Kept apart so `qrtrack keys …` does not load the CSV and database code of import/export.
export const BULK_USAGE = `  qrtrack import FILE --account NAME [--design-json '{"dotsStyle":"rounded",…}']
  qrtrack export --account NAME [--format csv|json|png|svg] [--active true|false] [--content-type KIND] [--q TEXT] [--tag NAME] [--out FILE]
                 (png and svg: a ZIP of the images, --out FILE.zip)`;

export class BulkUsageError extends Error {}
