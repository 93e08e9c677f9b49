// How a claim is named to people (buyer pages, e-mails, the phone): its number on its plan with the plan's reference
// number, "claim 2 on CLM-2026-7K3M9Q2X". Internal ids (clm_…) are never shown to a buyer.

/** "claim 2 on CLM-2026-7K3M9Q2X": the claim's name inside a sentence. */
export function claimName(referenceNumber: string, number: number): string {
  return `claim ${number} on ${referenceNumber}`;
}

/** "Claim 2 on CLM-2026-7K3M9Q2X": the claim's name as a title or at the start of a sentence. */
export function claimTitle(referenceNumber: string, number: number): string {
  return `Claim ${number} on ${referenceNumber}`;
}
