#include "child_runs.h"

#include "bench_support.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sightline::bench {

const char* const kKernelSummarySql = R"SQL(
WITH k AS (SELECT k.end - k.start AS dur, s.value AS name
           FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName),
ranked AS (SELECT name, dur, ROW_NUMBER() OVER (PARTITION BY name ORDER BY dur) AS r,
                  COUNT(*) OVER (PARTITION BY name) AS n FROM k),
med AS (SELECT name, AVG(dur) AS median FROM ranked WHERE r IN ((n + 1) / 2, (n + 2) / 2) GROUP BY name),
total AS (SELECT SUM(dur) AS t FROM k)
SELECT ROUND(100.0 * SUM(k.dur) / total.t, 1) AS "Time (%)", SUM(k.dur) AS "Total Time (ns)",
       COUNT(*) AS "Instances", ROUND(AVG(k.dur), 1) AS "Avg (ns)", med.median AS "Med (ns)",
       MIN(k.dur) AS "Min (ns)", MAX(k.dur) AS "Max (ns)",
       ROUND(sqrt(MAX(0.0, (SUM(1.0 * k.dur * k.dur) - SUM(k.dur) * AVG(k.dur)) / MAX(1, COUNT(*) - 1))), 1)
           AS "StdDev (ns)", k.name AS "Name"
FROM k JOIN med USING (name), total GROUP BY k.name ORDER BY 2 DESC;
)SQL";

ChildRun runChild(const std::vector<std::string>& argv)
{
    ChildRun run;
    int pipeFds[2];
    if (pipe(pipeFds) != 0) return run;
    Stopwatch wall;
    const pid_t child = fork();
    if (child == 0) {
        dup2(pipeFds[1], STDOUT_FILENO);
        close(pipeFds[0]);
        close(pipeFds[1]);
        std::vector<char*> args;
        for (const std::string& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        std::fprintf(stderr, "benchmark: cannot run %s: %s\n", args[0], std::strerror(errno));
        _exit(127);
    }
    close(pipeFds[1]);
    char buffer[4096];
    for (ssize_t got; (got = read(pipeFds[0], buffer, sizeof buffer)) > 0;)
        run.output.append(buffer, size_t(got));
    close(pipeFds[0]);
    int status = 0;
    struct rusage usage
    {
    };
    wait4(child, &status, 0, &usage);
    run.wallSeconds = wall.seconds();
    run.peakBytes = uint64_t(usage.ru_maxrss) * 1024;
    run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    run.missing = WIFEXITED(status) && WEXITSTATUS(status) == 127;
    return run;
}

ChildRun fastestOf(int runs, const std::vector<std::string>& argv)
{
    ChildRun best = runChild(argv);
    for (int i = 1; i < runs && best.ok; ++i) {
        ChildRun again = runChild(argv);
        const uint64_t peak = std::max(best.peakBytes, again.peakBytes);
        if (again.ok && again.wallSeconds < best.wallSeconds) best = std::move(again);
        best.peakBytes = peak;
    }
    return best;
}

std::filesystem::path inChild(const std::function<std::filesystem::path()>& step)
{
    int fds[2];
    if (pipe(fds) != 0) std::exit(1);
    const pid_t child = fork();
    if (child == 0) {
        const std::string path = step().string();
        if (write(fds[1], path.data(), path.size()) < 0) _exit(1);
        _exit(0);
    }
    close(fds[1]);
    std::string path;
    char buffer[4096];
    for (ssize_t got; (got = read(fds[0], buffer, sizeof buffer)) > 0;)
        path.append(buffer, size_t(got));
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || path.empty()) std::exit(1);
    return path;
}

} // namespace sightline::bench
