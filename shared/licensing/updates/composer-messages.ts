/** The realm Composer shows when it asks for credentials (DECISIONS §24). */
export const COMPOSER_REALM = 'Composer repository';
export const PACKAGE_NOT_FOUND = 'Package not found';
