// Dates and times as a person reads them, in UTC and saying so: the service does not know the reader's time zone
// (e-mails, the payout terms). Storage stays UTC milliseconds.

const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const dayAndTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "27 Nov 2026" (the UTC day). */
export const utcDay = (ms: number) => day.format(new Date(ms));

/** "27 Nov 2026, 14:05 UTC" */
export const utcDayAndTime = (ms: number) => `${dayAndTime.format(new Date(ms))} UTC`;
