// The Program page's form fields of a currency's amounts, named alike by the page and by its action.

/** The form fields of a currency's minimum fee, maximum covered amount and amount approved without review. */
export const limitFields = (currency: string) => ({
  minFee: `minFee-${currency}`,
  maxCovered: `maxCovered-${currency}`,
  autoApproveMax: `autoApproveMax-${currency}`,
});
