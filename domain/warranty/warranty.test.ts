import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { DEFAULT_WARRANTY_MONTHS, warrantyChecks, warrantyEnd, warrantyMonthsOf } from './warranty';

const spec = deciderSpec(warrantyChecks);

describe('warranty checks', () => {
  it('records a check that found a unit, with the serial number in capitals', () => {
    spec
      .given([])
      .when(
        {
          type: 'RecordWarrantyCheck',
          checkId: 'w-1',
          serialNumber: ' sn-2026-001001-01001 ',
          organisationId: 'org-1',
          unit: { orderId: 'o-1', underWarranty: true },
        },
        { actorId: 'u-1' },
      )
      .then([
        {
          type: 'WarrantyChecked.v1',
          data: {
            checkId: 'w-1',
            serialNumber: 'SN-2026-001001-01001',
            checkedBy: 'u-1',
            organisationId: 'org-1',
            found: true,
            orderId: 'o-1',
            underWarranty: true,
          },
        },
      ]);
  });

  it('records a check that found nothing', () => {
    spec
      .given([])
      .when({ type: 'RecordWarrantyCheck', checkId: 'w-2', serialNumber: 'SN-0000', organisationId: 'org-1', unit: null }, { actorId: 'u-1' })
      .then([
        {
          type: 'WarrantyChecked.v1',
          data: { checkId: 'w-2', serialNumber: 'SN-0000', checkedBy: 'u-1', organisationId: 'org-1', found: false, orderId: null, underWarranty: null },
        },
      ]);
  });

  it('records a check once', () => {
    const recorded = {
      type: 'WarrantyChecked.v1' as const,
      data: { checkId: 'w-3', serialNumber: 'X', checkedBy: 'u', organisationId: 'o', found: false, orderId: null, underWarranty: null },
    };
    spec.given([recorded]).when({ type: 'RecordWarrantyCheck', checkId: 'w-3', serialNumber: 'X', organisationId: 'o', unit: null }).then([]);
  });

  it('gives each category its warranty period and ends it after whole months', () => {
    expect(warrantyMonthsOf('Industrial Managed Switches')).toBe(60);
    expect(warrantyMonthsOf('Helix Accessories')).toBe(12);
    expect(warrantyMonthsOf('Something new')).toBe(DEFAULT_WARRANTY_MONTHS);
    expect(warrantyEnd('2026-03-15T10:00:00.000Z', 24)).toBe('2028-03-15T23:59:59.999Z');
  });
});
