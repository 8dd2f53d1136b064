/**
 * Opens the verification link a local stack e-mailed to `email` (read from `GET /_local/mail`), as the vendor would:
 * imports and exports need the address verified (DECISIONS §20).
 */
export async function verifyAddress(baseUrl: string, email: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const { emails } = (await (await fetch(`${baseUrl}/_local/mail`)).json()) as { emails: { to: string[]; text: string }[] };
    const link = emails
      .filter((sent) => sent.to.includes(email))
      .map((sent) => /https?:\/\/\S+\/api\/auth\/verify-email\?token=[a-z2-7]{32}/.exec(sent.text)?.[0])
      .find(Boolean);
    if (link) {
      const url = new URL(link);
      await fetch(`${baseUrl}${url.pathname}${url.search}`, { redirect: 'manual' });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No verification e-mail reached ${email}`);
}
