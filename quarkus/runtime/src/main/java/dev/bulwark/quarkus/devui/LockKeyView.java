package dev.bulwark.quarkus.devui;

import dev.bulwark.LockKeySnapshot;
import java.util.List;

/**
 * One key of a lock as the store sees it now.
 *
 * @param writer the live writer, or null
 * @param readers the live readers
 * @param queued requests waiting for the key
 */
public record LockKeyView(String key, HolderView writer, List<HolderView> readers, int queued) {

  static LockKeyView of(LockKeySnapshot snapshot) {
    return new LockKeyView(
        snapshot.key(),
        snapshot.writer().map(HolderView::of).orElse(null),
        snapshot.readers().stream().map(HolderView::of).toList(),
        snapshot.queued());
  }
}
