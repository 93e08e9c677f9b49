// Order statistics the benchmark scripts report.

/** The value at fraction `p` (0–1) of the sorted values: the upper one of the two middle values for p = 0.5. */
export const percentile = (values: readonly number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

export const median = (values: readonly number[]) => percentile(values, 0.5);
