import type Stripe from 'stripe';

/**
 * A one-page PDF naming the invoice and its amount: what the fake Stripe serves at an invoice's `invoice_pdf`, so a
 * buyer's click on an invoice link opens a real document. The cross-reference table holds each object's byte offset.
 */
export function invoiceDocument(invoice: Stripe.Invoice): Buffer {
  const line = `Invoice ${invoice.id}: ${(invoice.amount_paid / 100).toFixed(2)} ${invoice.currency.toUpperCase()}`.replace(/[()\\]/g, '');
  const stream = `BT /F1 14 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
