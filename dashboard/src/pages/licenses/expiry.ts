/** `<input type="date">` works in days; the service in instants. A license expires at the end of its day (UTC). */
export const expiryFromDay = (day: string) => (day ? `${day}T23:59:59Z` : null);
export const dayFromExpiry = (expiresAt: string | null) => (expiresAt ? expiresAt.slice(0, 10) : '');
