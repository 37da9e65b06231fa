import { assertNever, type CommandMetadata, type Decider } from '../decider';

/**
 * Warranty checks: a serial number looked up in the Support Center's Warranty/RMA tab. Each check is
 * recorded (who asked, for which serial number, whether a unit of theirs was found), so support can
 * see what a customer looked up before calling.
 */

/** Months of warranty by product category, counted from delivery (or shipping, until delivered). */
export const WARRANTY_MONTHS_BY_CATEGORY: Readonly<Record<string, number>> = {
  'Helix Xtreme Switches': 60,
  'Industrial Managed Switches': 60,
  'Industrial Unmanaged Switches': 36,
  'Managed Switches': 36,
  'Unmanaged Switches': 24,
  'Helix Power Supply': 24,
  'Helix Accessories': 12,
};
/** Any other category (or a product no longer in the catalogue). */
export const DEFAULT_WARRANTY_MONTHS = 12;

export const warrantyMonthsOf = (category: string | null | undefined) =>
  category && Object.hasOwn(WARRANTY_MONTHS_BY_CATEGORY, category) ? WARRANTY_MONTHS_BY_CATEGORY[category] : DEFAULT_WARRANTY_MONTHS;

/** The warranty's last moment: `months` calendar months after `start`. */
export function warrantyEnd(start: string, months: number): string {
  const date = new Date(start);
  const end = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate(), 23, 59, 59, 999));
  return end.toISOString();
}

export const WARRANTY_MESSAGES = {
  notFound: (serial: string) => `No shipped unit with serial number ${serial} was found.`,
  underWarranty: 'This unit is under warranty.',
  expired: 'The warranty of this unit has ended.',
  notUnderWarranty: 'This unit is no longer under warranty: open a support case instead of a return.',
} as const;

export type WarrantyCheckState = { status: 'none' } | { status: 'recorded' };

export type WarrantyCheckEvent = {
  type: 'WarrantyChecked.v1';
  data: {
    checkId: string;
    serialNumber: string;
    checkedBy: string;
    organisationId: string;
    found: boolean;
    orderId: string | null;
    underWarranty: boolean | null;
  };
};

export type WarrantyCheckCommand = {
  type: 'RecordWarrantyCheck';
  checkId: string;
  serialNumber: string;
  organisationId: string;
  /** What the look-up found among the units the caller may see. */
  unit: { orderId: string; underWarranty: boolean } | null;
};

export function decide(command: WarrantyCheckCommand, state: WarrantyCheckState, metadata: CommandMetadata): WarrantyCheckEvent[] {
  switch (command.type) {
    case 'RecordWarrantyCheck':
      if (state.status !== 'none') return [];
      return [
        {
          type: 'WarrantyChecked.v1',
          data: {
            checkId: command.checkId,
            serialNumber: command.serialNumber.trim().toUpperCase(),
            checkedBy: metadata.actorId ?? command.organisationId,
            organisationId: command.organisationId,
            found: command.unit !== null,
            orderId: command.unit?.orderId ?? null,
            underWarranty: command.unit?.underWarranty ?? null,
          },
        },
      ];
    default:
      return assertNever(command.type);
  }
}

export const warrantyChecks: Decider<WarrantyCheckState, WarrantyCheckCommand, WarrantyCheckEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => (event.type === 'WarrantyChecked.v1' ? { status: 'recorded' } : _state),
  decide,
  streamId: (id) => `warrantychecks-${id}`,
};
