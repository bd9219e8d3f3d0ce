/**
 * An approval's amount as a person reads it: grouped thousands, at most two decimals ("1,250", "12.5", "0.99").
 * Requests carry no currency, so none is invented; the summary names it.
 */
export function formatAmount(amount: number): string {
  return amount.toLocaleString("en", { maximumFractionDigits: 2 });
}
