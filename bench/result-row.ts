// One line of a benchmark report: a figure, and where it has one, its ratio to a
// baseline measured in the same run.
export interface ResultRow {
  name: string;
  value: number;
  unit: string;
  ratio?: number;
  baseline?: string;
  extra?: string;
}
