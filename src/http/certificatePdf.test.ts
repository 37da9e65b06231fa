import { describe, expect, it } from 'vitest';
import { pdfPages, pdfText } from '../testing/pdf';
import { certificatePdf } from './certificatePdf';

const facts = {
  holder: 'Zoë Łukasiewicz (Ops)',
  organisation: 'Northwind Networks',
  course: 'VLAN fundamentals',
  issuedAt: '2026-08-09T11:00:00.000Z',
  expiresAt: '2027-08-09T11:00:00.000Z',
  verificationCode: 'K7QP-3MZX-94RT',
  status: 'active' as const,
  verifyUrl: 'https://portal.example/verify-certificate/K7QP-3MZX-94RT',
};

describe('the certificate PDF', () => {
  it('is one page that a PDF reader opens', async () => {
    const pdf = await certificatePdf(facts);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfPages(pdf)).toBe(1);
  });

  it('names the person as written, the organisation, the course, the dates and the code', async () => {
    const text = await pdfText(await certificatePdf(facts));
    expect(text).toContain('Zoë Łukasiewicz (Ops)');
    expect(text).toContain('Northwind Networks');
    expect(text).toContain('VLAN fundamentals');
    expect(text).toContain('Issued 9 August 2026 · Valid until 9 August 2027');
    expect(text).toContain('Verification code: K7QP-3MZX-94RT');
    expect(text).toContain('Verify at https://portal.example/verify-certificate/K7QP-3MZX-94RT');
    expect(text).not.toContain('EXPIRED');
    expect(await pdfText(await certificatePdf({ ...facts, status: 'expired' }))).toContain('EXPIRED');
  });

  it('puts a long course title on two lines, every word kept', async () => {
    const course = 'Industrial switch installation, grounding, DIN-rail mounting and safe power wiring for harsh environments';
    const text = await pdfText(await certificatePdf({ ...facts, course }));
    const lines = text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const first = lines.findIndex((line) => line.startsWith('Industrial switch'));
    expect(first).toBeGreaterThan(-1);
    expect(lines[first]).not.toBe(course);
    expect(`${lines[first]} ${lines[first + 1]}`).toBe(course);
  });
});
