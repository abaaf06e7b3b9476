package io.github.camelredisdelay.benchmark;

/** The two queues compared. */
enum Side {
    OURS("redis-delay") {
        @Override
        QueueUnderTest open(Bench bench, String run) {
            return new RedisDelayComponentQueue(bench.redis(), bench.camel(), "bench:" + run, run);
        }
    },
    THEIRS("RDelayedQueue") {
        @Override
        QueueUnderTest open(Bench bench, String run) {
            return new RDelayedQueueBaseline(bench.redis(), bench.redisson(), "bench:" + run);
        }
    };

    private final String label;

    Side(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** A new, empty queue named after the run. */
    abstract QueueUnderTest open(Bench bench, String run);
}
