export type { Brand, OwnedQuerySource, PersistedPreview, SeenId, Unbounded } from './brands.js';
