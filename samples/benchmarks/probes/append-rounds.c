/*
 * append-rounds: the ceiling of a 1 KiB appender on this machine, outside any JVM and any queue
 * (docs/performance.md, "what a C writer reaches in the same rounds").
 *
 * Each round does what one JMH AppendBenchmark iteration does to memory: a fresh file mapped shared, 1 KiB records
 * (an 8-byte sequence, then 1016 bytes) written one after the other for one second, the blocks reserved with
 * fallocate 32 MiB at a time ahead of the writer (as cq reserves), then cut to its records (as cq cuts a file when
 * it closes), unmapped, closed and deleted. It prints the round's rate and its rate in each tenth of the second.
 *
 * Modes, for who takes the page faults of the fresh file:
 *   0  the writing thread alone, as a plain mapped-file writer does (Chronicle Queue without its pretoucher);
 *   1  one more thread faulting in, with madvise(MADV_POPULATE_WRITE), the 16 MiB just ahead of the writer
 *      (the design of cq's run-way for a fast appender, docs/operations.md, "Disk usage");
 *   2  two more threads faulting in alternate 4 MiB stripes from 8 MiB to 40 MiB ahead of the writer.
 *
 * With a fourth argument, a number of milliseconds, a round does not unmap its file before deleting it: another
 * thread unmaps it that long after, during the next round, as Chronicle Queue releases its mappings later on a thread
 * of its own. The file's pages are then freed while the next round writes.
 *
 * Build and run (Linux 5.14 or later):
 *   cc -O2 -pthread -o /tmp/append-rounds samples/benchmarks/probes/append-rounds.c
 *   /tmp/append-rounds <mode> <rounds> <directory on the disk to measure> [unmap after, ms]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MIB (1UL << 20)
#define RECORD 1024UL
#define FILE_BYTES (6UL << 30)
#define SLICE MIB
#define TENTHS 10

static char *mapping;
static _Atomic size_t written_up_to;
static _Atomic int round_over;
static int mode;

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void fault_in(size_t from, size_t to) {
    for (size_t slice = from; slice < to && slice < FILE_BYTES; slice += SLICE) {
        size_t end = slice + SLICE < FILE_BYTES ? slice + SLICE : FILE_BYTES;
        madvise(mapping + slice, end - slice, MADV_POPULATE_WRITE);
    }
}

/* Mode 1: keeps [writer, writer + 16 MiB) faulted in, never going back over what it did. */
static void *run_way(void *unused) {
    (void) unused;
    size_t done = 0;
    while (!atomic_load(&round_over)) {
        size_t writer = atomic_load(&written_up_to);
        size_t from = (done > writer ? done : writer) & ~(SLICE - 1);
        size_t to = writer + 16 * MIB;
        if (from < to) {
            fault_in(from, to);
            done = to;
        } else {
            usleep(50);
        }
    }
    return NULL;
}

/* Mode 2: helper k faults in the stripes of parity k within [writer + 8 MiB, writer + 40 MiB). */
static void *stripes(void *parity) {
    const size_t stripe = 4 * MIB;
    size_t done = 0;
    while (!atomic_load(&round_over)) {
        size_t writer = atomic_load(&written_up_to);
        size_t from = (done > writer + 8 * MIB ? done : writer + 8 * MIB) & ~(stripe - 1);
        size_t to = writer + 40 * MIB;
        int worked = 0;
        for (size_t s = from; s < to; s += stripe) {
            if ((s / stripe) % 2 == (size_t) parity) {
                fault_in(s, s + stripe);
                worked = 1;
            }
            done = s + stripe;
        }
        if (!worked) {
            usleep(50);
        }
    }
    return NULL;
}

struct late_unmap {
    char *mapping;
    int millis;
};

static void *unmap_later(void *arg) {
    struct late_unmap *late = arg;
    usleep((useconds_t) late->millis * 1000);
    munmap(late->mapping, FILE_BYTES);
    free(late);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: append-rounds <0|1|2> <rounds> <directory> [unmap after, ms]\n");
        return 2;
    }
    int unmap_after = argc > 4 ? atoi(argv[4]) : -1;
    mode = atoi(argv[1]);
    int rounds = atoi(argv[2]);
    char path[4096];
    snprintf(path, sizeof path, "%s/append-rounds.%d", argv[3], getpid());
    char payload[RECORD - 8];
    memset(payload, 'a', sizeof payload);

    for (int round = 0; round < rounds; round++) {
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || ftruncate(fd, FILE_BYTES) != 0) {
            perror(path);
            return 1;
        }
        mapping = mmap(NULL, FILE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (mapping == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
        atomic_store(&written_up_to, 0);
        atomic_store(&round_over, 0);
        pthread_t helpers[2];
        int helper_count = mode == 1 ? 1 : mode == 2 ? 2 : 0;
        for (long k = 0; k < helper_count; k++) {
            pthread_create(&helpers[k], NULL, mode == 1 ? run_way : stripes, (void *) k);
        }

        double start = seconds();
        double elapsed = 0;
        size_t counts[TENTHS] = {0};
        size_t position = 0;
        size_t records = 0;
        size_t reserved = 0;
        while (elapsed < 1.0 && position + RECORD <= FILE_BYTES) {
            if (position + 16 * MIB > reserved && reserved < FILE_BYTES) {
                if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t) reserved, (off_t) (32 * MIB)) != 0) {
                    perror("fallocate");
                    return 1;
                }
                reserved += 32 * MIB;
            }
            for (int i = 0; i < 256 && position + RECORD <= FILE_BYTES; i++) {
                memcpy(mapping + position + 8, payload, sizeof payload);
                *(volatile long *) (mapping + position) = (long) records++;
                position += RECORD;
            }
            atomic_store(&written_up_to, position);
            elapsed = seconds() - start;
            int tenth = (int) (elapsed * TENTHS);
            counts[tenth < TENTHS ? tenth : TENTHS - 1] += 256;
        }
        atomic_store(&round_over, 1);
        for (int k = 0; k < helper_count; k++) {
            pthread_join(helpers[k], NULL);
        }
        if (unmap_after < 0) {
            munmap(mapping, FILE_BYTES);
        } else {
            struct late_unmap *late = malloc(sizeof *late);
            late->mapping = mapping;
            late->millis = unmap_after;
            pthread_t unmapper;
            pthread_create(&unmapper, NULL, unmap_later, late);
            pthread_detach(unmapper);
        }
        if (ftruncate(fd, (off_t) position) != 0) {
            perror("ftruncate");
        }
        close(fd);
        unlink(path);

        printf("mode %d round %d: %.2fM records/s, %.2f GB; per tenth (M/s):", mode, round, records / elapsed / 1e6,
               position / 1e9);
        for (int t = 0; t < TENTHS; t++) {
            printf(" %.2f", counts[t] * (double) TENTHS / 1e6);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
