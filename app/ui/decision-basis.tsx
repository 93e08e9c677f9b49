// What an automatic decision rested on (server/domain/decision-basis.ts), as the buyer reads it: the buyer portal shows
// it under the decision in the buyer's language, the claims console beside it in English, each under its own heading.
import type { ReactNode } from "react";

/** The basis's sentences under the page's heading; nothing when there are none (a person decided). */
export function DecisionBasis({ basis, heading }: { basis: readonly string[]; heading: ReactNode }) {
  if (basis.length === 0) return null;
  return (
    <>
      {heading}
      <ul className="decision-basis">
        {basis.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
    </>
  );
}
