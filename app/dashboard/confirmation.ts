// The field a form sends only from its confirmation step (ConfirmedAction): the server does what cannot be undone
// only when it is there (confirmation.server.ts).
export const CONFIRM_FIELD = "confirmed";
export const CONFIRM_VALUE = "yes";
