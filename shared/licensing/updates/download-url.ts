/** The licensed download of a release (DECISIONS §5): absolute, with the key as sent. */
export const downloadUrl = (baseUrl: string, releaseId: string, licenseKey: string) =>
  `${baseUrl}/v1/download/${encodeURIComponent(releaseId)}?license_key=${encodeURIComponent(licenseKey)}`;
