// Display formats shared by the dashboard's cards. Server and browser render the same text (no locale or time
// zone of the viewer), so hydration matches.

/** Minor units → "$12.34" / "¥1,234", in one fixed locale. */
export { formatMoneyEnUs as formatMoney } from "@purchase-protection/contract";

/** "2026-11-22T04:27:26.000Z" → "2026-11-22 04:27 UTC". */
export const formatTime = (isoTime: string) => `${isoTime.slice(0, 16).replace("T", " ")} UTC`;

/** Basis points → "3 %" / "2.5 %". */
export const formatBps = (bps: number) => `${bps / 100} %`;
