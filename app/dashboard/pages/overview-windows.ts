/** The Overview's windows, in days (30 by default). */
export const OVERVIEW_WINDOWS = [30, 90] as const;
