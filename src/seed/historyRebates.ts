import type { DemoRebate } from './demoRebate';

const NORTHWIND = 'partner@partnerhub.test';
const PAMPAS = 'lucia.fernandez@pampas-digital.test';
const SAKURA = 'kenji.mori@sakura-netcom.test';

const approved = (ratePercent: number) => [{ status: 'processing' as const }, { status: 'approved' as const, ratePercent, note: 'Approved after review' }];

/**
 * Claims of the quarters before the recent demo rebates, all decided long ago, so the rebate lists and
 * the tier progress show a programme that has been running; each after its organisation's approval.
 */
export function historyRebates(): DemoRebate[] {
  return [
    {
      organisation: NORTHWIND,
      quarter: 2,
      day: 60,
      invoice: 'NW-INV-19350',
      product: 'HX-M2408 8-Port Gigabit Managed Switch',
      category: 'Managed Switches',
      type: 'Volume Rebate',
      amount: 22_700,
      description: 'Primary schools network, 120 classroom switches.',
      documents: ['invoice', 'delivery-note'],
      steps: approved(2),
    },
    {
      organisation: NORTHWIND,
      quarter: 2,
      day: 72,
      invoice: 'NW-INV-19611',
      product: 'HX-M2448P 48-Port PoE+ Managed Switch',
      category: 'Managed Switches',
      type: 'Project Rebate',
      amount: 37_980,
      description: 'Office tower PoE lighting pilot.',
      documents: ['invoice'],
      steps: approved(3.5),
    },
    {
      organisation: NORTHWIND,
      quarter: 2,
      day: 84,
      invoice: 'NW-INV-19790',
      product: 'SFP-10G-SR Transceiver',
      category: 'Helix Accessories',
      type: 'Promotional Rebate',
      amount: 2_340,
      description: 'Summer optics promotion.',
      documents: ['invoice'],
      steps: [{ status: 'rejected', reason: 'The promotion ended before the purchase date.' }],
    },
    {
      organisation: PAMPAS,
      quarter: 1,
      day: 12,
      invoice: 'PD-0008120',
      product: 'HX-U108P 8-Port PoE Unmanaged Switch',
      category: 'Unmanaged Switches',
      type: 'Volume Rebate',
      amount: 9_800,
      description: 'Supermarket chain cameras.',
      documents: ['invoice'],
      steps: approved(2),
    },
    {
      organisation: PAMPAS,
      quarter: 1,
      day: 48,
      invoice: 'PD-0008544',
      product: 'IMS-1612P 16-Port PoE Industrial Managed Switch',
      category: 'Industrial Managed Switches',
      type: 'Project Rebate',
      amount: 27_140,
      description: 'Wind farm substation.',
      documents: ['invoice', 'delivery-note'],
      steps: approved(3.5),
    },
    {
      organisation: SAKURA,
      quarter: 1,
      day: 70,
      invoice: 'SKN-77-1009',
      product: 'IMS-2804R Industrial Rack Switch',
      category: 'Industrial Managed Switches',
      type: 'Volume Rebate',
      amount: 44_800,
      description: 'Depot automation, first phase.',
      documents: ['invoice'],
      steps: approved(3.5),
    },
  ];
}
