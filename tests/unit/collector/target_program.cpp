// The program the collector's end-to-end tests profile. Its behaviour is fixed so the tests can
// check the report against it: it prints what it did (including thread ids) on stdout, one
// "key value" per line, and exits with code 7.
//
// Scenarios (argv[1]):
//   nvtx-osrt  nested push/pop, a domain with a registered string, colours, categories and
//              payloads, a start/end range that ends on another thread, marks, thread names,
//              sleeps, a contended mutex, file I/O and many short calls below the threshold.
//   segv       records a little, waits for a flush, then dies of SIGSEGV.
//   sigkill    records a little, waits for a flush, then SIGKILLs itself.
//   fork       the parent and a forked child each push a range; the parent waits for it.
//   threads    64 short-lived threads, 8 at a time, each pushes one range named by its index.
//   spawn      starts itself (posix_spawn) with "child-work", which pushes "spawned-range".
//   sleep      pushes "waiting" and sleeps 30 s: for signal-forwarding tests.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <nvtx3/nvToolsExt.h>
#include <spawn.h>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

unsigned currentTid()
{
    return unsigned(syscall(SYS_gettid));
}

void sleepMs(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

nvtxEventAttributes_t attributes(const char* message, uint32_t color)
{
    nvtxEventAttributes_t a {};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = color;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    return a;
}

void nestedRanges()
{
    const nvtxEventAttributes_t outer = attributes("outer", 0xFF00FF00u);
    nvtxRangePushEx(&outer);
    nvtxRangePushA("middle");
    nvtxRangePushA("inner");
    sleepMs(2);
    nvtxRangePop();
    nvtxRangePop();
    nvtxRangePop();
}

void domainRanges()
{
    nvtxDomainHandle_t domain = nvtxDomainCreateA("app-domain");
    nvtxStringHandle_t registered = nvtxDomainRegisterStringA(domain, "registered-range");
    nvtxEventAttributes_t a {};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.category = 7;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = 0xFF0000FFu;
    a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
    a.payload.llValue = -42;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = registered;
    nvtxDomainRangePushEx(domain, &a);
    sleepMs(1);
    nvtxDomainRangePop(domain);
    const nvtxEventAttributes_t mark = attributes("domain-mark", 0xFFFF0000u);
    nvtxDomainMarkEx(domain, &mark);
}

void fileIo(const std::string& path)
{
    std::vector<char> block(1 << 20, 'x');
    const int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_RDWR, 0644);
    for (int i = 0; i < 4; ++i)
        if (write(fd, block.data(), block.size()) < 0) break;
    fsync(fd);
    lseek(fd, 0, SEEK_SET);
    while (read(fd, block.data(), block.size()) > 0) { }
    close(fd);
    unlink(path.c_str());
}

int nvtxAndOsRuntime(const char* scratch)
{
    std::printf("main-tid %u\n", currentTid());
    nestedRanges();
    domainRanges();
    nvtxMarkA("checkpoint");

    std::mutex contended;
    contended.lock();
    const nvtxRangeId_t cross = nvtxRangeStartA("cross-thread");
    unsigned workerTid = 0;
    std::thread worker([&] {
        workerTid = currentTid();
        nvtxNameOsThreadA(workerTid, "worker-1");
        contended.lock(); // blocks until main unlocks: a contended pthread_mutex_lock
        nvtxRangeEnd(cross);
        contended.unlock();
    });
    sleepMs(30);
    contended.unlock();
    worker.join();
    std::printf("worker-tid %u\n", workerTid);

    std::mutex quiet;
    for (int i = 0; i < 1000; ++i) { // uncontended: never recorded
        quiet.lock();
        quiet.unlock();
    }
    usleep(20000);
    timespec threeMs {0, 3000000};
    nanosleep(&threeMs, nullptr);
    fileIo(std::string(scratch) + "/target-io.bin");
    std::printf("target says hello\n");
    std::fprintf(stderr, "target warns\n");
    return 7;
}

int dieAfterFlush(int signal)
{
    std::printf("main-tid %u\n", currentTid());
    std::fflush(stdout);
    nvtxRangePushA("before-crash");
    usleep(10000);
    nvtxRangePop();
    nvtxRangePushA("open-at-crash");
    sleepMs(400); // the writer drains every ~100 ms
    if (signal == SIGSEGV) {
        volatile int* nowhere = nullptr;
        *nowhere = 1;
    }
    kill(getpid(), signal);
    return 0;
}

int forkChild()
{
    std::printf("main-tid %u\n", currentTid());
    std::fflush(stdout);
    nvtxRangePushA("parent-range");
    const pid_t child = fork();
    if (child == 0) {
        nvtxRangePushA("child-range");
        usleep(5000);
        nvtxRangePop();
        std::printf("child-pid %d\n", int(getpid()));
        std::fflush(stdout);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    nvtxRangePop();
    return 7;
}

int shortThreads()
{
    std::printf("main-tid %u\n", currentTid());
    for (int wave = 0; wave < 8; ++wave) {
        std::vector<std::thread> threads;
        for (int i = 0; i < 8; ++i)
            threads.emplace_back([index = wave * 8 + i] {
                const std::string name = "thread-" + std::to_string(index);
                nvtxRangePushA(name.c_str());
                usleep(100);
                nvtxRangePop();
            });
        for (std::thread& t : threads)
            t.join();
    }
    return 7;
}

int spawnSelf()
{
    std::printf("main-tid %u\n", currentTid());
    std::fflush(stdout);
    char self[4096] = {};
    if (readlink("/proc/self/exe", self, sizeof(self) - 1) <= 0) return 3;
    char work[] = "child-work";
    char* childArgv[] = {self, work, nullptr};
    pid_t child = 0;
    if (posix_spawn(&child, self, nullptr, nullptr, childArgv, environ) != 0) return 4;
    int status = 0;
    waitpid(child, &status, 0);
    std::printf("child-pid %d\n", int(child));
    return 7;
}

int childWork()
{
    nvtxRangePushA("spawned-range");
    usleep(2000);
    nvtxRangePop();
    return 0;
}

int sleepLong()
{
    std::printf("main-tid %u\n", currentTid());
    std::fflush(stdout);
    nvtxRangePushA("waiting");
    sleep(30);
    nvtxRangePop();
    return 7;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string scenario = argc > 1 ? argv[1] : "nvtx-osrt";
    if (scenario == "nvtx-osrt") return nvtxAndOsRuntime(argc > 2 ? argv[2] : "/tmp");
    if (scenario == "segv") return dieAfterFlush(SIGSEGV);
    if (scenario == "sigkill") return dieAfterFlush(SIGKILL);
    if (scenario == "fork") return forkChild();
    if (scenario == "threads") return shortThreads();
    if (scenario == "spawn") return spawnSelf();
    if (scenario == "child-work") return childWork();
    if (scenario == "sleep") return sleepLong();
    std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
    return 2;
}
