// Ratings as players see them (Glicko-2, one per variant): whole points, with "?" while
// provisional (a deviation of 110 or more), and quick match's window as it widens.

// The rating variants as the server names them, in its order.
export const VARIANTS = ['classic-4', 'classic-3', 'classic-5', 'classic-large', 'obstacles', 'fifteen'];

// "1662?" for a provisional rating, "1662" otherwise.
export function ratingText(rating, provisional) {
  return provisional ? `${rating}?` : String(rating);
}

// The ± window of a quick-match wait after waitedMs, as the server's `queued` describes it:
// window, widened by window_step every window_every_ms, up to window_max.
export function matchWindow(queued, waitedMs) {
  const steps = Math.max(0, Math.floor(waitedMs / queued.window_every_ms));
  return Math.min(queued.window_max, queued.window + queued.window_step * steps);
}
