import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { products, type ProductCategory } from '../../domain/products/products';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import type { Seeder } from './seeder';
import { demoCalendar } from './timeline';

interface DemoProduct {
  key: string;
  name: string;
  category: ProductCategory;
  price: number; // USD
  stock: number;
  moq: number;
  description: string;
  /** How the picture looks: front-panel ports, and a colour. `null`: no picture. */
  picture: { ports: number; sfp: number; colour: string; label: string } | null;
}

/** A catalogue a network-equipment vendor could sell: each category, in stock, low (1–10) and out of stock. */
export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  {
    key: 'hx-m2408',
    name: 'HX-M2408 8-Port Gigabit Managed Switch',
    category: 'Managed Switches',
    price: 189,
    stock: 140,
    moq: 2,
    description: 'Compact layer 2+ managed switch with 8 Gigabit ports, VLANs, QoS, IGMP snooping and a fanless metal case for offices and classrooms.',
    picture: { ports: 8, sfp: 0, colour: '#0d5ea8', label: 'HX-M2408' },
  },
  {
    key: 'hx-m2424',
    name: 'HX-M2424 24-Port Gigabit Managed Switch',
    category: 'Managed Switches',
    price: 649,
    stock: 36,
    moq: 1,
    description: '24 Gigabit ports and 4 SFP+ 10G uplinks, static routing, ACLs and a web, CLI and SNMP interface. 1U rackmount.',
    picture: { ports: 24, sfp: 4, colour: '#0d5ea8', label: 'HX-M2424' },
  },
  {
    key: 'hx-m2448p',
    name: 'HX-M2448P 48-Port PoE+ Managed Switch',
    category: 'Managed Switches',
    price: 1899,
    stock: 8,
    moq: 1,
    description: '48 PoE+ ports with a 740 W budget for access points and cameras, 4 SFP+ uplinks, stacking up to 8 units.',
    picture: { ports: 48, sfp: 4, colour: '#0b3d6b', label: 'HX-M2448P' },
  },
  {
    key: 'hx-u105',
    name: 'HX-U105 5-Port Gigabit Desktop Switch',
    category: 'Unmanaged Switches',
    price: 24.9,
    stock: 600,
    moq: 10,
    description: 'Plug-and-play desktop switch with 5 Gigabit ports and energy-efficient Ethernet.',
    picture: { ports: 5, sfp: 0, colour: '#4f6d7a', label: 'HX-U105' },
  },
  {
    key: 'hx-u116',
    name: 'HX-U116 16-Port Gigabit Rackmount Switch',
    category: 'Unmanaged Switches',
    price: 119,
    stock: 0,
    moq: 5,
    description: '16 Gigabit ports in a 13-inch rackmount steel case with an internal power supply.',
    picture: { ports: 16, sfp: 0, colour: '#4f6d7a', label: 'HX-U116' },
  },
  {
    key: 'hx-u108p',
    name: 'HX-U108P 8-Port PoE Unmanaged Switch',
    category: 'Unmanaged Switches',
    price: 89,
    stock: 45,
    moq: 4,
    description: '8 Gigabit ports, 4 of them PoE (65 W budget), for small camera and phone installations.',
    picture: null,
  },
  {
    key: 'xs-6400',
    name: 'XS-6400 32x100G Spine Switch',
    category: 'Helix Xtreme Switches',
    price: 24500,
    stock: 3,
    moq: 1,
    description: 'Data-centre spine with 32 QSFP28 100G ports, 6.4 Tbps switching, VXLAN EVPN, redundant fans and power supplies.',
    picture: { ports: 0, sfp: 32, colour: '#7b1fa2', label: 'XS-6400' },
  },
  {
    key: 'xs-4800',
    name: 'XS-4800 48x25G Leaf Switch',
    category: 'Helix Xtreme Switches',
    price: 11900,
    stock: 12,
    moq: 1,
    description: '48 SFP28 25G ports and 8 QSFP28 100G uplinks for top-of-rack deployments, with telemetry streaming and zero-touch provisioning.',
    picture: { ports: 0, sfp: 24, colour: '#7b1fa2', label: 'XS-4800' },
  },
  {
    key: 'xs-2400',
    name: 'XS-2400 24x10G Aggregation Switch',
    category: 'Helix Xtreme Switches',
    price: 3450,
    stock: 0,
    moq: 1,
    description: '24 SFP+ 10G ports and 2 QSFP28 uplinks for campus aggregation.',
    picture: null,
  },
  {
    key: 'ims-810',
    name: 'IMS-810 8-Port DIN-Rail Managed Switch',
    category: 'Industrial Managed Switches',
    price: 420,
    stock: 64,
    moq: 2,
    description: 'Hardened managed switch for -40 to 75 °C, dual redundant 12–48 V DC inputs, ring recovery under 20 ms, IP40 aluminium housing.',
    picture: { ports: 8, sfp: 2, colour: '#e65100', label: 'IMS-810' },
  },
  {
    key: 'ims-1612p',
    name: 'IMS-1612P 16-Port PoE Industrial Managed Switch',
    category: 'Industrial Managed Switches',
    price: 1180,
    stock: 9,
    moq: 1,
    description: '12 PoE+ ports and 4 Gigabit SFP slots for traffic cameras and outdoor wireless, with Modbus TCP and PROFINET support.',
    picture: { ports: 12, sfp: 4, colour: '#e65100', label: 'IMS-1612P' },
  },
  {
    key: 'ims-2804r',
    name: 'IMS-2804R 28-Port Rackmount Industrial Switch',
    category: 'Industrial Managed Switches',
    price: 2240,
    stock: 22,
    moq: 1,
    description: 'IEC 61850-3 certified rackmount switch for substations: 24 Gigabit ports, 4 SFP+ uplinks, PTP time synchronisation.',
    picture: null,
  },
  {
    key: 'ius-5',
    name: 'IUS-5 5-Port DIN-Rail Unmanaged Switch',
    category: 'Industrial Unmanaged Switches',
    price: 79,
    stock: 310,
    moq: 10,
    description: 'Slim DIN-rail switch for control cabinets, 5 Fast Ethernet ports, wide temperature range.',
    picture: { ports: 5, sfp: 0, colour: '#f57c00', label: 'IUS-5' },
  },
  {
    key: 'ius-8p',
    name: 'IUS-8P 8-Port PoE DIN-Rail Switch',
    category: 'Industrial Unmanaged Switches',
    price: 169,
    stock: 4,
    moq: 2,
    description: '8 Gigabit ports with 4 PoE+ outputs and a 48 V DC input, for machine vision and access control.',
    picture: { ports: 8, sfp: 0, colour: '#f57c00', label: 'IUS-8P' },
  },
  {
    key: 'ius-16f',
    name: 'IUS-16F 16-Port Fibre Unmanaged Switch',
    category: 'Industrial Unmanaged Switches',
    price: 540,
    stock: 0,
    moq: 1,
    description: '16 100FX multimode fibre ports for electrically noisy plants.',
    picture: null,
  },
  {
    key: 'sfp-10g-sr',
    name: 'SFP-10G-SR 10GBASE-SR SFP+ Transceiver',
    category: 'Helix Accessories',
    price: 39,
    stock: 1200,
    moq: 10,
    description: '850 nm multimode transceiver, up to 300 m over OM3, LC duplex, digital diagnostics.',
    picture: { ports: 0, sfp: 1, colour: '#2e7d32', label: 'SFP-10G-SR' },
  },
  {
    key: 'dac-25g-3m',
    name: 'DAC-25G-3M SFP28 Direct-Attach Cable, 3 m',
    category: 'Helix Accessories',
    price: 29.5,
    stock: 48,
    moq: 10,
    description: 'Passive 25G copper cable for short top-of-rack links.',
    picture: null,
  },
  {
    key: 'rmk-19',
    name: 'RMK-19 19-Inch Rack Mount Kit',
    category: 'Helix Accessories',
    price: 18,
    stock: 7,
    moq: 1,
    description: 'Brackets and screws to mount desktop and DIN-rail switches in a 19-inch rack.',
    picture: null,
  },
  {
    key: 'psu-150w',
    name: 'PSU-150W Redundant Power Supply',
    category: 'Helix Power Supply',
    price: 129,
    stock: 85,
    moq: 1,
    description: 'Hot-swappable 150 W AC power supply for HX-M series managed switches.',
    picture: { ports: 0, sfp: 0, colour: '#c62828', label: 'PSU-150W' },
  },
  {
    key: 'psu-740w',
    name: 'PSU-740W PoE Power Supply Module',
    category: 'Helix Power Supply',
    price: 489,
    stock: 11,
    moq: 1,
    description: '740 W power supply that raises the PoE budget of the HX-M2448P to its full rating.',
    picture: { ports: 0, sfp: 0, colour: '#c62828', label: 'PSU-740W' },
  },
  {
    key: 'drp-240',
    name: 'DRP-240 240 W DIN-Rail Power Supply, 48 V DC',
    category: 'Helix Power Supply',
    price: 139,
    stock: 0,
    moq: 2,
    description: 'DIN-rail supply for industrial PoE switches, 88 % efficiency, DC OK relay.',
    picture: null,
  },
];

export const demoProductId = (key: string) => deterministicUuid(`demo-product:${key}`);
const demoImageName = (key: string) => `${deterministicUuid(`demo-product-image:${key}`)}.svg`;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small front-panel drawing: the device body, its copper ports, its fibre cages and its model name. */
export function productSvg(picture: NonNullable<DemoProduct['picture']>): string {
  const width = 320;
  const height = 200;
  const parts: string[] = [];
  const copperRows = picture.ports > 12 ? 2 : 1;
  const perRow = Math.ceil(picture.ports / copperRows);
  const portSize = Math.min(16, Math.floor(200 / Math.max(perRow, 1)) - 2);
  for (let i = 0; i < picture.ports; i++) {
    const row = Math.floor(i / perRow);
    const col = i % perRow;
    parts.push(`<rect x="${40 + col * (portSize + 2)}" y="${84 + row * (portSize + 4)}" width="${portSize}" height="${portSize - 3}" rx="2" fill="#1b2631"/>`);
  }
  const sfpWidth = picture.ports ? 14 : Math.min(18, Math.floor(220 / Math.max(picture.sfp, 1)) - 2);
  const sfpStart = picture.ports ? 250 - picture.sfp * 16 + 30 : 40;
  for (let i = 0; i < picture.sfp; i++) {
    parts.push(`<rect x="${sfpStart + i * (sfpWidth + 2)}" y="86" width="${sfpWidth}" height="22" rx="1" fill="#cfd8dc" stroke="#263238"/>`);
  }
  if (!picture.ports && !picture.sfp) {
    // A power supply: a fan grille and a socket.
    parts.push(
      '<circle cx="110" cy="104" r="26" fill="none" stroke="#eceff1" stroke-width="3"/>',
      '<circle cx="110" cy="104" r="10" fill="#eceff1"/>',
      '<rect x="190" y="88" width="40" height="32" rx="4" fill="#1b2631"/>',
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    '<rect width="320" height="200" fill="#f4f6f8"/>',
    `<rect x="24" y="60" width="272" height="84" rx="8" fill="${picture.colour}"/>`,
    '<rect x="24" y="60" width="272" height="14" rx="6" fill="#ffffff" fill-opacity="0.18"/>',
    ...parts,
    '<circle cx="276" cy="128" r="4" fill="#76ff03"/>',
    `<text x="160" y="176" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="16" font-weight="700" fill="#263238">${escapeXml(picture.label)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/** Writes a demo picture into the public uploads unless it is there already; returns its file name. */
async function ensureImage(uploadDir: string, product: DemoProduct): Promise<string | null> {
  if (!product.picture) return null;
  const name = demoImageName(product.key);
  const file = path.join(uploadDir, 'public', name);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, productSvg(product.picture));
  }
  return name;
}

export const seedCatalogue: Seeder = {
  name: 'catalogue',
  async run(services, seedMetadata) {
    // The catalogue was listed when the demo world began.
    const metadata = demoCalendar(services, seedMetadata).founded();
    let created = 0;
    for (const demo of DEMO_PRODUCTS) {
      const productId = demoProductId(demo.key);
      const image = await ensureImage(services.config.UPLOAD_DIR, demo);
      // A product an admin removed stays removed.
      if ((await services.store.readStream(products.streamId(productId))).length) continue;
      await runCommand(
        services,
        products,
        productId,
        {
          type: 'AddProduct',
          productId,
          name: demo.name,
          priceCents: Math.round(demo.price * 100),
          category: demo.category,
          stockQuantity: demo.stock,
          moq: demo.moq,
          description: demo.description,
          image,
        },
        metadata,
      );
      created++;
    }
    return `${created} of ${DEMO_PRODUCTS.length} demo products created`;
  },
};
