/**
 * The search a help desk types most: the first three or four letters of a person's family
 * name, as `GET /users?q=<prefix>&limit=20`, for seeded people drawn at random (so common
 * surnames come up as often as the directory holds them: a tenth of the seeded people are
 * García and its relatives, seed-names.ts). The prefixes are of the name's Latin spelling
 * (the username's), which every seeded person has.
 */
import { personOf } from './seed-names.js';
import type { SearchShape } from './search-shapes.js';

/** The page size a search box asks for. */
export const SURNAME_PAGE = 20;

/** `GET /users?q=<3–4 letter family-name prefix>&limit=20` for seeded person `i`. */
export function surnamePath(i: number): string {
  const family = personOf(i).family.ascii.toLowerCase().replace(/[^a-z]/g, '');
  return `/users?q=${family.slice(0, 3 + (i % 2))}&limit=${SURNAME_PAGE}`;
}

export const SURNAME_SHAPE: SearchShape = {
  name: 'q-surnames',
  title: `q=<3–4 letter family-name prefix of a random seeded person>, limit ${SURNAME_PAGE}`,
  paths: (users) => Array.from({ length: Math.min(users, 20_000) }, () => surnamePath(Math.floor(Math.random() * users))),
};
