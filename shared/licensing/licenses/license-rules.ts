/** The most seats a license may have (create, update, import). */
export const MAX_SEATS = 1_000_000;
