// The Analytics page's ready-made periods, in days (its loader and its form): a module of its own, since the browser
// may not import the loader's.
export const ANALYTICS_WINDOWS = [7, 30, 90, 365] as const;
