package io.github.camelredisdelay.embedded;

/** What {@code INFO replication} of a master and its replica say about the link between them. */
final class Replication {

    private Replication() {
    }

    /**
     * True when the replica's link to the master is up with no sync in progress, and the master counts it as an
     * online replica.
     */
    static boolean inSync(RedisServerProcess master, RedisServerProcess replica) {
        String replicaInfo = replica.command("INFO", "replication");
        String masterInfo = master.command("INFO", "replication");
        String replicaAddress = "ip=" + replica.host() + ",port=" + replica.port() + ",";
        return Info.field(replicaInfo, "master_link_status").filter("up"::equals).isPresent()
                && Info.field(replicaInfo, "master_sync_in_progress").filter("0"::equals).isPresent()
                && masterInfo.lines().anyMatch(line -> line.startsWith("slave")
                        && line.contains(replicaAddress) && line.contains("state=online"));
    }
}
