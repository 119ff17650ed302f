package io.cq.core;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link MappedQueue#verify()} found: every cycle file read record by record, its index checked against the
 * records, and anything that is not what docs/file-format.md describes reported with its file and byte position.
 *
 * @param queue           the queue directory
 * @param filesChecked    cycle files read
 * @param excerptsChecked excerpts walked over
 * @param findings        damage and notes, in file and position order
 */
public record QueueVerification(Path queue, int filesChecked, long excerptsChecked, List<Finding> findings) {
    public QueueVerification {
        findings = List.copyOf(findings);
    }

    /** How bad a finding is. */
    public enum Severity {
        /** Data a reader cannot get past, or an index that points at the wrong place: the queue is damaged. */
        DAMAGE,
        /** A state the engine repairs by itself (an excerpt a dead writer left unfinished, an unfinished cycle). */
        NOTE
    }

    /** One thing found, where it was found. */
    public record Finding(Severity severity, Path file, long position, String description) {
        @Override
        public String toString() {
            return severity + " " + file + (position >= 0 ? " at " + position : "") + ": " + description;
        }
    }

    /** Whether no finding is {@link Severity#DAMAGE}. */
    public boolean isIntact() {
        return findings.stream().noneMatch(finding -> finding.severity() == Severity.DAMAGE);
    }
}
