/** The most seats a license may have (create, update, import). */
export const MAX_SEATS = 1_000_000;

/** The seats new activations and leases may fill: `seats`, or fewer while a downgrade is pending (DECISIONS §20). */
export const seatLimit = (license: { seats: number; pendingSeats?: number }) => Math.min(license.seats, license.pendingSeats ?? license.seats);
