import { describe, expect, it } from 'vitest';
import { attachmentDisposition, safeDownloadName } from './downloadName';

describe('safeDownloadName', () => {
  it('gives the name the extension of the checked content type', () => {
    expect(safeDownloadName('evil.html', 'pdf')).toBe('evil.pdf');
    expect(safeDownloadName('invoice.PDF', 'pdf')).toBe('invoice.PDF');
    expect(safeDownloadName('photo.jpeg', 'jpg')).toBe('photo.jpeg');
    expect(safeDownloadName('report', 'docx')).toBe('report.docx');
    expect(safeDownloadName('archive.tar.gz', 'pdf')).toBe('archive.tar.pdf');
  });
  it('drops control and bidirectional characters, path parts and edge dots', () => {
    expect(safeDownloadName('invoice\u202Efdp.exe', 'pdf')).toBe('invoicefdp.pdf');
    expect(safeDownloadName('a\u2066b\u200Fc\u0007d\r\n.pdf', 'pdf')).toBe('abcd.pdf');
    expect(safeDownloadName('../../etc/passwd', 'pdf')).toBe('passwd.pdf');
    expect(safeDownloadName('C:\\Users\\me\\plan.docx', 'docx')).toBe('plan.docx');
    expect(safeDownloadName('...hidden.pdf', 'pdf')).toBe('hidden.pdf');
    expect(safeDownloadName('a<b>c:"d"|e?f*.pdf', 'pdf')).toBe('a_b_c__d__e_f_.pdf');
  });
  it('keeps readable Unicode and falls back to a neutral name', () => {
    expect(safeDownloadName('Angebot Zürich 東京.pdf', 'pdf')).toBe('Angebot Zürich 東京.pdf');
    expect(safeDownloadName('\u202E\u202E', 'png')).toBe('download.png');
    expect(safeDownloadName('', 'csv')).toBe('download.csv');
    expect(safeDownloadName(`${'x'.repeat(500)}.pdf`, 'pdf')).toBe(`${'x'.repeat(120)}.pdf`);
  });
});

describe('attachmentDisposition', () => {
  it('has an ASCII filename and an RFC 5987 filename* of the same safe name', () => {
    expect(attachmentDisposition('Angebot Zürich (1).pdf')).toBe(
      `attachment; filename="Angebot Zurich (1).pdf"; filename*=UTF-8''Angebot%20Z%C3%BCrich%20%281%29.pdf`,
    );
    expect(attachmentDisposition('東京.pdf')).toBe(`attachment; filename="_.pdf"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC.pdf`);
    expect(attachmentDisposition("it's 100%;ok.pdf")).toBe(`attachment; filename="it_s 100__ok.pdf"; filename*=UTF-8''it%27s%20100%25%3Bok.pdf`);
  });
});
