#include "collector/convert/cpu/dwarf_unwinder.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dwarf.h>
#include <elfutils/libdwfl.h>

namespace sightline::collector {

namespace {

// perf's x86-64 register numbers (perf_regs.h) for each DWARF register 0..16: rax, rdx, rcx,
// rbx, rsi, rdi, rbp, rsp, r8..r15, rip.
constexpr int kPerfRegisterOfDwarf[17] = {0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8};

struct UnwindContext
{
    ProcessImage* image = nullptr;
    const PerfSample* sample = nullptr;
    uint64_t registerMask = 0;
    std::vector<uint64_t>* frames = nullptr;
    size_t maxFrames = 0;
    bool threadGiven = false;
    size_t bytesRead = 0; // of the copy, from its start: what the frames depend on
};

bool perfRegister(const UnwindContext& c, int perfRegister, uint64_t& value)
{
    return sampleRegister(*c.sample, c.registerMask, perfRegister, value);
}

pid_t nextThread(Dwfl*, void* arg, void** threadArg)
{
    auto* c = static_cast<UnwindContext*>(arg);
    if (c->threadGiven) return 0;
    c->threadGiven = true;
    *threadArg = arg;
    return pid_t(c->image->pid());
}

bool getThread(Dwfl*, pid_t, void* arg, void** threadArg)
{
    *threadArg = arg;
    return true;
}

bool readMemory(Dwfl*, Dwarf_Addr address, Dwarf_Word* result, void* arg)
{
    auto* c = static_cast<UnwindContext*>(arg);
    uint64_t sp = 0;
    if (!perfRegister(*c, kPerfRegisterSp, sp)) return false;
    const std::string_view stack = c->sample->userStack;
    if (address < sp || address - sp > stack.size() || stack.size() - (address - sp) < sizeof(Dwarf_Word))
        return false;
    memcpy(result, stack.data() + (address - sp), sizeof(Dwarf_Word));
    c->bytesRead = std::max<size_t>(c->bytesRead, size_t(address - sp) + sizeof(Dwarf_Word));
    return true;
}

bool setInitialRegisters(Dwfl_Thread* thread, void* arg)
{
    auto* c = static_cast<UnwindContext*>(arg);
    Dwarf_Word registers[17];
    for (int dwarf = 0; dwarf < 17; ++dwarf) {
        uint64_t value = 0;
        if (!perfRegister(*c, kPerfRegisterOfDwarf[dwarf], value)) return false;
        registers[dwarf] = value;
    }
    if (!dwfl_thread_state_registers(thread, 0, 16, registers)) return false;
    dwfl_thread_state_register_pc(thread, registers[16]);
    return true;
}

const Dwfl_Thread_Callbacks kCallbacks = {
    nextThread,
    getThread,
    readMemory,
    setInitialRegisters,
    nullptr,
    nullptr,
};

int onFrame(Dwfl_Frame* frame, void* arg)
{
    auto* c = static_cast<UnwindContext*>(arg);
    Dwarf_Addr pc = 0;
    bool activation = false;
    if (!dwfl_frame_pc(frame, &pc, &activation)) return DWARF_CB_ABORT;
    c->frames->push_back(activation ? pc : pc - 1);
    return c->frames->size() >= c->maxFrames ? DWARF_CB_ABORT : DWARF_CB_OK;
}

} // namespace

bool sampleRegister(const PerfSample& sample, uint64_t registerMask, int perfRegister, uint64_t& value)
{
    return spool::perfRegisterValue(
        sample.userRegisters.data(), sample.userRegisters.size(), registerMask, perfRegister, value);
}

std::optional<int64_t> stackPointerCfaOffset(ProcessImage& image, uint64_t ip)
{
    constexpr Dwarf_Word kDwarfRsp = 7;
    Dwfl* dwfl = image.dwfl();
    Dwfl_Module* module = dwfl ? dwfl_addrmodule(dwfl, ip) : nullptr;
    Dwarf_Addr bias = 0;
    Dwarf_CFI* cfi = module ? dwfl_module_eh_cfi(module, &bias) : nullptr;
    if (!cfi && module) cfi = dwfl_module_dwarf_cfi(module, &bias);
    Dwarf_Frame* frame = nullptr;
    if (!cfi || dwarf_cfi_addrframe(cfi, ip - bias, &frame) != 0) return std::nullopt;
    Dwarf_Op* ops = nullptr;
    size_t count = 0;
    std::optional<int64_t> offset;
    if (dwarf_frame_cfa(frame, &ops, &count) == 0 && count == 1 && ops[0].atom == DW_OP_bregx
        && ops[0].number == kDwarfRsp)
        offset = int64_t(ops[0].number2);
    free(frame);
    return offset;
}

bool unwindCopiedStack(ProcessImage& image, const PerfSample& sample, uint64_t registerMask,
    std::vector<uint64_t>& frames, size_t maxFrames, size_t* bytesRead)
{
    if (bytesRead) *bytesRead = 0;
    if (sample.userRegisters.empty() || sample.userStack.empty()) return false;
    Dwfl* dwfl = image.dwfl();
    if (!dwfl) return false;
    // libdwfl keeps the callbacks' argument from the first attach; it points at this holder,
    // which each call refills.
    static thread_local UnwindContext context;
    context = {&image, &sample, registerMask, &frames, frames.size() + maxFrames, false, 0};
    if (dwfl_pid(dwfl) <= 0 && !dwfl_attach_state(dwfl, nullptr, pid_t(image.pid()), &kCallbacks, &context))
        return false;
    // 0: every frame was unwound up to one whose return address is undefined.
    const bool whole = dwfl_getthread_frames(dwfl, pid_t(image.pid()), onFrame, &context) == 0;
    if (bytesRead) *bytesRead = context.bytesRead;
    return whole;
}

} // namespace sightline::collector
