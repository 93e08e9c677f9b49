// The Liquid the merchant pastes into Shopify's "Order confirmation" notification (Settings → Notifications): the
// four items the contract requires in the merchant's e-mail (docs/shopify.md "Merchant e-mail obligations"). Shopify renders it;
// we fill in what Shopify cannot know (our company name and portal URL) when the dashboard shows it.
//
// The reference number comes from the order attribute the orders/create job writes back. Shopify may send the
// confirmation before that write-back lands (it sends at once); then the e-mail says how to look the number up, and
// every later render (a resent confirmation) prints it.
import { fullDisclosure } from "../../server/index.ts";
import { ACCEPTED, CHOICE_ATTRIBUTE, REFERENCE_ATTRIBUTE } from "@purchase-protection/contract";

/** Liquid-safe text: the values go inside a template, not through Liquid's own escaping. */
const liquidText = (text: string) => text.replace(/[{}%<>&]/g, (character) => `&#${character.charCodeAt(0)};`);

export function orderConfirmationSnippet(settings: { companyName: string; portalUrl: string }): string {
  const portal = liquidText(settings.portalUrl.replace(/\/+$/, ""));
  return `{%- comment -%} Purchase Protection: required in the order confirmation when the buyer opted in. {%- endcomment -%}
{%- assign protection_choice = "" -%}
{%- assign protection_reference = "" -%}
{%- for attribute in attributes -%}
  {%- assign attribute_name = attribute | first -%}
  {%- if attribute_name == "${CHOICE_ATTRIBUTE}" -%}{%- assign protection_choice = attribute | last -%}{%- endif -%}
  {%- if attribute_name == "${REFERENCE_ATTRIBUTE}" -%}{%- assign protection_reference = attribute | last -%}{%- endif -%}
{%- endfor -%}
{%- if protection_choice == "${ACCEPTED}" or protection_reference != "" -%}
<table class="row protection-notice"><tr><td>
  <h3>Purchase Protection</h3>
  {%- if protection_reference != "" %}
  <p>Your protection reference number: <strong>{{ protection_reference }}</strong></p>
  {%- else %}
  <p>Your protection reference number is being issued; look it up at <a href="${portal}">${portal}</a> with your order number {{ order_name }}.</p>
  {%- endif %}
  <p>${liquidText(fullDisclosure(settings.companyName))}</p>
  <p>You may cancel within 48 hours of purchase for a full refund of the protection fee at <a href="${portal}">${portal}</a> using your reference number.</p>
  <p>What is covered and how to request a refund (within 30 days of a covered event):
  {%- if protection_reference != "" %} <a href="${portal}/coverage/{{ protection_reference }}">${portal}/coverage/{{ protection_reference }}</a>
  {%- else %} <a href="${portal}">${portal}</a>{%- endif %}</p>
</td></tr></table>
{%- endif -%}
`;
}
