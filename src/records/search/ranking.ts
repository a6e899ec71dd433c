// When bestmatch ranks, for every engine: ranking costs per match, so above these limits a search
// orders by newest instead (each engine decides alike, so they answer alike).

/** Above this many hits bestmatch orders by newest: ranking every match costs more than a page is worth. */
export const RANK_LIMIT = 5000;
/** Most phrases a bestmatch query is ranked with (200 words made one search take a second at 1,500 records). */
export const MAX_RANKED_PHRASES = 32;
