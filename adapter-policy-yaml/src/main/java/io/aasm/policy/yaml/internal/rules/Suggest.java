package io.aasm.policy.yaml.internal.rules;

import java.util.Collection;
import java.util.Optional;

/** Nearest-word suggestions for typos (Levenshtein distance, bounded so wild guesses are not offered). */
public final class Suggest {
    private Suggest() {
    }

    public static Optional<String> nearest(String word, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(word.toLowerCase(java.util.Locale.ROOT), c);
            if (d < bestDistance || (d == bestDistance && best != null && c.compareTo(best) < 0)) {
                best = c;
                bestDistance = d;
            }
        }
        int allowed = Math.max(2, word.length() / 3);
        return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** "did you mean 'x'? " or "", for the front of a hint. */
    public static String didYouMean(String word, Collection<String> candidates) {
        return nearest(word, candidates).map(s -> "did you mean '" + s + "'? ").orElse("");
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
