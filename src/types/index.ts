export type { Brand, ForkableState, OwnedQuerySource, PersistedPreview, SeenId, Unbounded } from './brands.js';
