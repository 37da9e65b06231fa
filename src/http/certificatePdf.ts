import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { create as parseFont, type Font } from 'fontkit';
import PDFDocument from 'pdfkit';

/**
 * The certificate as a one-page PDF (A4 landscape), laid out by pdfkit in DejaVu Sans, which is embedded
 * (subset) so names in any Latin, Greek or Cyrillic script print as written.
 */

export interface CertificateFacts {
  holder: string;
  organisation: string | null;
  course: string;
  issuedAt: string;
  expiresAt: string;
  verificationCode: string;
  status: 'active' | 'expired';
  verifyUrl: string;
}

const fontFolder = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/**
 * The fonts are read and parsed once per process, on the first certificate: parsing a TrueType file took
 * most of each certificate's time. pdfkit takes a parsed font as it takes a file, and each document still
 * embeds its own subset of it.
 */
let fonts: { regular: Font; bold: Font } | undefined;
const fontsOnce = () =>
  (fonts ??= {
    regular: parseFont(readFileSync(path.join(fontFolder, 'DejaVuSans.ttf'))) as Font,
    bold: parseFont(readFileSync(path.join(fontFolder, 'DejaVuSans-Bold.ttf'))) as Font,
  });
/** pdfkit's types name files and buffers only; a parsed font is what it makes of them. */
const asSource = (font: Font) => font as unknown as Buffer;

const BLUE = '#29528c';
const GOLD = '#bf9940';
const GREY = '#595959';
/** Text runs between the frames with this margin on each side. */
const MARGIN = 80;

// Made once: `toLocaleDateString` with options builds a new formatter on every call.
const LONG_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const longDate = (iso: string) => LONG_DATE.format(new Date(iso));

export function certificatePdf(facts: CertificateFacts): Promise<Buffer> {
  const { regular, bold } = fontsOnce();
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 0,
    // Without a font of its own, a document would first load its default (Helvetica's metrics) as well.
    font: asSource(regular) as unknown as string,
    info: { Title: `Certificate - ${facts.course}`, Author: 'PartnerHub', Producer: 'PartnerHub' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', asSource(regular));
  doc.registerFont('bold', asSource(bold));

  const { width, height } = doc.page;
  doc
    .lineWidth(6)
    .strokeColor(BLUE)
    .rect(30, 30, width - 60, height - 60)
    .stroke();
  doc
    .lineWidth(1.5)
    .strokeColor(GOLD)
    .rect(44, 44, width - 88, height - 88)
    .stroke();

  const lineWidth = width - 2 * MARGIN;
  /** A centred line at `y`, shrunk until it fits on one line (long names and codes never wrap). */
  const line = (text: string, y: number, size: number, font: 'regular' | 'bold' = 'regular', color = 'black') => {
    let fontSize = size;
    doc.font(font);
    while (fontSize > 8 && doc.fontSize(fontSize).widthOfString(text) > lineWidth) fontSize -= 1;
    doc.fontSize(fontSize).fillColor(color).text(text, MARGIN, y, { width: lineWidth, align: 'center', lineBreak: false });
  };

  line('PARTNERHUB LEARNING', 80, 14, 'bold', GREY);
  line('Certificate of Completion', 125, 32, 'bold');
  line('This certifies that', 185, 14);
  line(facts.holder, 220, 28, 'bold');
  if (facts.organisation) line(facts.organisation, 262, 13, 'regular', GREY);
  line('has passed the certifying course', 295, 14);
  // A long course title wraps onto a second line rather than shrinking to nothing.
  doc.font('bold').fontSize(22);
  doc.fontSize(doc.widthOfString(facts.course) > lineWidth ? 18 : 22).fillColor('black');
  doc.text(facts.course, MARGIN, 325, { width: lineWidth, align: 'center', height: 50, ellipsis: true });
  line(`Issued ${longDate(facts.issuedAt)}  ·  Valid until ${longDate(facts.expiresAt)}`, 395, 13);
  if (facts.status === 'expired') line('EXPIRED', 422, 16, 'bold', GREY);
  line(`Verification code: ${facts.verificationCode}`, 460, 14, 'bold');
  line(`Verify at ${facts.verifyUrl}`, 485, 10, 'regular', GREY);
  doc.end();
  return done;
}
