package dev.agentarena.junit.engine.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/** Peak heap use since a reset, the largest heap left after any collection, and the live heap now. */
final class HeapWatch {

    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).collect(Collectors.toList());
    private final Set<String> heapPools = pools.stream().map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    private final AtomicLong peakLive = new AtomicLong();

    HeapWatch() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
                        .equals(notification.getType())) {
                    Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo
                            .from((CompositeData) notification.getUserData()).getGcInfo()
                            .getMemoryUsageAfterGc();
                    long live = after.entrySet().stream().filter(e -> heapPools.contains(e.getKey()))
                            .mapToLong(e -> e.getValue().getUsed()).sum();
                    peakLive.accumulateAndGet(live, Math::max);
                }
            }, null, null);
        }
    }

    void reset() {
        System.gc();
        pools.forEach(MemoryPoolMXBean::resetPeakUsage);
        peakLive.set(0);
    }

    /** Sum of the pools' peaks: an upper bound of the heap in use at any one time. */
    long peakUsed() {
        return pools.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
    }

    long peakLive() {
        return peakLive.get();
    }

    long liveNow() {
        System.gc();
        return pools.stream().mapToLong(pool -> pool.getUsage().getUsed()).sum();
    }

    static double mb(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
