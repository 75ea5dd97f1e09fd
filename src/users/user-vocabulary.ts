/**
 * What a search may ask of a user: which profile fields are facets (filtered by
 * equality) and which fields sort a page. The domain's words, on the ground floor:
 * the schemas, the service and the store port import them from here, never the reverse.
 */

/**
 * Profile fields a search filters on by equality (canonical, case-insensitive), each indexed
 * (store/search-column.ts). `manager` is the manager's id (`manager.value`).
 */
export const FACETS = ['department', 'title', 'organization', 'division', 'cost_center', 'employee_number', 'user_type', 'manager'] as const;
export type Facet = (typeof FACETS)[number];

/** Fields a search can be sorted by: each has an index that pages walk. */
export const SORT_FIELDS = ['uid', 'username', 'display_name', 'family_name', 'given_name', 'created_at', 'updated_at'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** One key of a page's order; the uid always follows the last key, in its direction. */
export interface SortKey {
  field: Exclude<SortField, 'uid'>;
  descending: boolean;
}
