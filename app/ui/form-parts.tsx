// The form pieces every page of our own sites shares (the buyer portal, the claims console): plain HTML that works
// without JavaScript, with the accessibility parts in one place (labels, hints and errors tied to their fields, an
// error summary that links to each field and takes focus).
import { useEffect, useRef, type ReactNode } from "react";

export type FieldErrors = Record<string, string>;

/** The error summary above a form: a heading, then one link per field error (or the form's own error). */
export function ErrorSummary({ errors, formError }: { errors?: FieldErrors; formError?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const entries = Object.entries(errors ?? {});
  const shown = Boolean(formError) || entries.length > 0;
  // With JavaScript the summary takes focus when it appears; without, the page loads with it near the top.
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown, formError, errors]);
  if (!shown) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} ref={ref}>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {formError ? <li>{formError}</li> : null}
        {entries.map(([field, message]) => (
          <li key={field}>
            <a href={`#${field}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A labelled control with its hint and error, wired by id (aria-describedby, aria-invalid). */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (props: { id: string; name: string; "aria-describedby"?: string; "aria-invalid"?: true }) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className={error ? "field field-error" : "field"}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {children({
        id,
        name: id,
        "aria-describedby": describedBy || undefined,
        "aria-invalid": error ? true : undefined,
      })}
    </div>
  );
}

export const Notice = ({ children }: { children: ReactNode }) => (
  <div className="notice" role="status">
    {children}
  </div>
);
