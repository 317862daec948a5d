package io.aasm.backend.landlockseccomp.internal.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the layout from mountinfo and the process's cgroup file instead of assuming v2: this host
 * (and many CI machines) mounts v1 resource controllers next to a nearly empty cgroup2.
 */
public final class CgroupLayoutParser {
    private static final Set<String> V1_CONTROLLERS = Set.of("cpu", "cpuacct", "cpuset", "memory", "devices",
            "freezer", "blkio", "pids", "net_cls", "net_prio", "hugetlb", "perf_event", "rdma", "misc");

    private CgroupLayoutParser() {
    }

    /**
     * @param mountinfo lines of /proc/self/mountinfo
     * @param ownCgroup lines of /proc/self/cgroup
     * @param rootPrefix prefix for mount points (a fake tree in tests, "" on the real host)
     */
    public static CgroupLayout parse(List<String> mountinfo, List<String> ownCgroup, Path rootPrefix) {
        Map<String, Path> v1 = new HashMap<>();
        Optional<Path> v2 = Optional.empty();
        for (String line : mountinfo) {
            int sep = line.indexOf(" - ");
            if (sep < 0) {
                continue;
            }
            String[] pre = line.substring(0, sep).split(" ");
            String[] post = line.substring(sep + 3).split(" ");
            if (pre.length < 5 || post.length < 3) {
                continue;
            }
            Path mountPoint = rebase(rootPrefix, unescape(pre[4]));
            if (post[0].equals("cgroup2")) {
                v2 = v2.isPresent() ? v2 : Optional.of(mountPoint);
            } else if (post[0].equals("cgroup")) {
                for (String opt : post[2].split(",")) {
                    if (V1_CONTROLLERS.contains(opt)) {
                        v1.putIfAbsent(opt, mountPoint);
                    }
                }
            }
        }
        Set<String> v2Controllers = new HashSet<>();
        if (v2.isPresent()) {
            try {
                String c = Files.readString(v2.get().resolve("cgroup.controllers")).trim();
                if (!c.isEmpty()) {
                    v2Controllers.addAll(List.of(c.split("\\s+")));
                }
            } catch (IOException e) {
                // no readable controller list: treat as offering nothing
            }
        }
        Map<String, String> own = new HashMap<>();
        for (String line : ownCgroup) {
            String[] f = line.split(":", 3);
            if (f.length != 3) {
                continue;
            }
            if (f[1].isEmpty()) {
                own.put("", f[2]);
            } else {
                for (String c : f[1].split(",")) {
                    own.put(c, f[2]);
                }
            }
        }
        return new CgroupLayout(v1, v2, v2Controllers, own);
    }

    private static Path rebase(Path prefix, String mountPoint) {
        return prefix.toString().isEmpty() ? Path.of(mountPoint) : prefix.resolve(mountPoint.substring(1));
    }

    private static String unescape(String s) {
        return s.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }
}
