// Time's vocabulary: instants are UTC milliseconds since the epoch, and the periods, windows and deadlines that count
// in days count UTC days of this length (JavaScript's time has no leap seconds).

/** One UTC day, in milliseconds. */
export const DAY_MS = 86_400_000;

/** One hour, in milliseconds. */
export const HOUR_MS = 3_600_000;
