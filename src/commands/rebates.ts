import { normalizeInvoiceNumber } from '../../domain/rebates/rebates';
import { deterministicUuid } from './commandHandler';

/** One claim per organisation and invoice: the id derives from both, so the claim's own stream refuses a second claim of the invoice. */
export const rebateIdFor = (organisationId: string, invoiceNumber: string) => deterministicUuid(`rebate:${organisationId}:${normalizeInvoiceNumber(invoiceNumber)}`);
