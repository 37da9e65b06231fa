import type { CommandMetadata } from '../domain/decider';
import { listEntryName, REBATE_PRODUCT_CATEGORIES, REBATE_TYPES } from '../domain/rebates/lists';
import { normalizeInvoiceNumber, rebates, type RebateDocument } from '../domain/rebates/rebates';
import type { RebateFormFields } from '../contracts/rebates';
import { removeUpload, storeUpload, type FileToStore } from '../platform/uploadStorage';
import type { Services } from '../platform/services';
import { deterministicUuid, type CommandOptions } from '../platform/commands/commandHandler';
import { runCommand } from '../platform/commands/dispatch';

type Deps = Pick<Services, 'store' | 'watcher'> & { config: Pick<Services['config'], 'UPLOAD_DIR'> };

/** One claim per organisation and invoice: the id derives from both, so the claim's own stream refuses a second claim of the invoice. */
export const rebateIdFor = (organisationId: string, invoiceNumber: string) =>
  deterministicUuid(`rebate:${organisationId}:${normalizeInvoiceNumber(invoiceNumber)}`);

export interface SubmitRebateInput {
  rebateId: string;
  organisationId: string;
  companyName: string | null;
  submittedBy: string;
  fields: RebateFormFields;
  /** The supporting documents as received; stored only here, once the rest of the form was valid. */
  files: FileToStore[];
}

/**
 * Stores the supporting documents privately, then submits the claim; when the claim is refused, the
 * documents stored for it are removed again, so a refused claim leaves no file behind.
 */
export async function submitRebate(deps: Deps, input: SubmitRebateInput, metadata: CommandMetadata, options?: CommandOptions): Promise<void> {
  const { fields } = input;
  const documents: RebateDocument[] = [];
  try {
    for (const file of input.files) {
      documents.push({
        file: await storeUpload(deps.config.UPLOAD_DIR, file, 'private'),
        name: file.originalName.slice(0, 200) || `document.${file.type}`,
        type: file.type,
        size: file.bytes.length,
      });
    }
    await runCommand(
      deps,
      rebates,
      input.rebateId,
      {
        type: 'SubmitRebate',
        rebateId: input.rebateId,
        organisationId: input.organisationId,
        companyName: input.companyName,
        submittedBy: input.submittedBy,
        productName: fields.product_name,
        productCategory: listEntryName(REBATE_PRODUCT_CATEGORIES, fields.product_category),
        purchaseDate: fields.purchase_date,
        invoiceNumber: fields.invoice_number,
        // A missing amount is the decider's to refuse, with its own message.
        purchaseAmountCents: fields.purchase_amount ?? Number.NaN,
        rebateType: listEntryName(REBATE_TYPES, fields.rebate_type),
        description: fields.description,
        documents,
      },
      metadata,
      options,
    );
  } catch (error) {
    await Promise.all(documents.map((d) => removeUpload(deps.config.UPLOAD_DIR, d.file, 'private')));
    throw error;
  }
}

/** A reviewer's decision on one claim: processing, approved (with the rebate in cents), or rejected (the reason in `notes`). */
export async function reviewRebate(
  deps: Deps,
  rebateId: string,
  review: { status: string; notes: string | null; rebateAmountCents: number | null },
  metadata: CommandMetadata,
): Promise<void> {
  await runCommand(deps, rebates, rebateId, { type: 'ReviewRebate', ...review }, metadata);
}

/** Deletes a claim; the decider decides whether the caller's organisation may. */
export async function deleteRebate(deps: Deps, rebateId: string, actorOrganisationId: string, metadata: CommandMetadata): Promise<void> {
  await runCommand(deps, rebates, rebateId, { type: 'DeleteRebate', actorOrganisationId, reason: null }, metadata);
}
